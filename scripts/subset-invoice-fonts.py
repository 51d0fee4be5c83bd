#!/usr/bin/env python3
"""
Makes the invoice PDF fonts committed in assets/fonts/ (run by hand, never by the build):
subsets of Noto Sans and Noto Sans CJK JP (both SIL Open Font License 1.1) from Debian's
fonts-noto-core and fonts-noto-cjk, cut with fontTools (Debian's python3-fonttools):

  apt-get install -y fonts-noto-core fonts-noto-cjk python3-fonttools
  /usr/bin/python3 scripts/subset-invoice-fonts.py

Noto Sans sets Latin (with Latin Extended A/B and Vietnamese), Greek, Cyrillic and
punctuation, plus U+2212 MINUS SIGN from Noto Sans Math; Noto Sans CJK JP whatever Noto Sans lacks: signs,
CJK punctuation, kana, full-width forms, the 2,350 Hangul syllables of KS X 1001 and the
level-1 ideographs of JIS X 0208 and GB 2312 (the common kanji and hanzi). The bold face
prints only the invoice's own labels and amounts: Latin.
"""
import os

import tempfile

from fontTools import subset as fonttools_subset
from fontTools.merge import Merger

NOTO = '/usr/share/fonts/truetype/noto'
NOTO_CJK = '/usr/share/fonts/opentype/noto'
TARGET = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'assets', 'fonts')

ALPHABETS = [
    (0x0020, 0x007E), (0x00A0, 0x024F), (0x1E00, 0x1EFF),  # Latin, Latin-1, Extended A/B, Vietnamese
    (0x0370, 0x03FF), (0x1F00, 0x1FFF), (0x0400, 0x052F),  # Greek, Greek Extended, Cyrillic
    (0x2000, 0x206F), (0x20A0, 0x20CF), (0x2100, 0x214F),  # punctuation, currency, letterlike
]
SIGNS = [(0x2190, 0x21FF), (0x2200, 0x22FF), (0x2460, 0x24FF), (0x25A0, 0x25FF)]  # arrows, math (U+2212), enclosed, shapes
CJK = [(0x3000, 0x303F), (0x3040, 0x30FF), (0x31F0, 0x31FF), (0xFF00, 0xFFEF)]  # CJK punctuation, kana, full/half width
LABELS = [(0x0020, 0x007E), (0x00A0, 0x00FF), (0x2010, 0x2027)]


def encoded(ch, codec):
    try:
        return ch.encode(codec)
    except UnicodeEncodeError:
        return None


def common_cjk():
    points = set()
    for cp in range(0x4E00, 0xA000):
        jis = encoded(chr(cp), 'euc_jp')
        gb = encoded(chr(cp), 'gb2312')
        if jis and len(jis) == 2 and jis[0] <= 0xCF:  # JIS X 0208 rows 16-47: level 1
            points.add(cp)
        if gb and gb[0] <= 0xD7:  # GB 2312 rows 16-55: level 1
            points.add(cp)
    points.update(cp for cp in range(0xAC00, 0xD7A4) if encoded(chr(cp), 'euc_kr'))  # KS X 1001 Hangul
    return points


def subset(source, output, points):
    unicodes = ','.join('U+%04X' % cp for cp in sorted(points))
    fonttools_subset.main([
        source, '--font-number=0',  # in the collection: 0 is Noto Sans CJK JP
        '--unicodes=' + unicodes, '--layout-features=kern,liga', '--no-hinting', '--output-file=' + os.path.join(TARGET, output),
    ])


def with_minus_sign(output):
    """Noto Sans has no U+2212 MINUS SIGN: take Noto Sans Math's (same design, same metrics), so a credit never loads the CJK face."""
    target = os.path.join(TARGET, output)
    with tempfile.TemporaryDirectory() as work:
        minus = os.path.join(work, 'minus.ttf')
        fonttools_subset.main([os.path.join(NOTO, 'NotoSansMath-Regular.ttf'), '--unicodes=U+2212', '--layout-features=', '--no-hinting', '--output-file=' + minus])
        Merger().merge([target, minus]).save(target)


def spans(blocks):
    return {cp for start, end in blocks for cp in range(start, end + 1)}


if __name__ == '__main__':
    subset(os.path.join(NOTO, 'NotoSans-Regular.ttf'), 'NotoSans-Regular-invoice.ttf', spans(ALPHABETS))
    with_minus_sign('NotoSans-Regular-invoice.ttf')
    subset(os.path.join(NOTO, 'NotoSans-Bold.ttf'), 'NotoSans-Bold-invoice.ttf', spans(LABELS))
    subset(os.path.join(NOTO_CJK, 'NotoSansCJK-Regular.ttc'), 'NotoSansCJKjp-Regular-invoice.otf', spans(SIGNS + CJK) | common_cjk())

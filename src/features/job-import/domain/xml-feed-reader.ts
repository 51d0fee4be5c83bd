/**
 * Reads a job feed in the aggregators' XML format (`<source><job>…</job></source>`, our own
 * jobs.xml and Indeed's) as a stream: the `sax` parser sees the bytes chunk by chunk and each
 * `<job>` is handed on as soon as it closes, so a feed of any length is read in the memory of
 * one job (plus the chunk). Unknown elements are skipped; CDATA and entities are text.
 */
import sax from 'sax';

/** One `<job>` as the feed gives it: every field optional, checked by the importer. */
export interface FeedJob {
  /** 1-based position in the feed, for the error report. */
  position: number;
  referencenumber?: string;
  title?: string;
  description?: string;
  city?: string;
  state?: string;
  country?: string;
  url?: string;
}

const FIELDS = new Set(['referencenumber', 'title', 'description', 'city', 'state', 'country', 'url']);
/** A field longer than this is cut: the importer rejects it anyway, and memory stays bounded. */
const MAX_FIELD_CHARS = 100_000;

export class FeedSyntaxError extends Error {}

/** Yields the feed's jobs in order; throws FeedSyntaxError on malformed XML or a document that is no job feed. */
export async function* readXmlFeed(chunks: AsyncIterable<Uint8Array | string>): AsyncGenerator<FeedJob> {
  const parser = sax.parser(true, { trim: false, normalize: false });
  const ready: FeedJob[] = [];
  let failure: Error | undefined;
  let root: string | undefined;
  let job: FeedJob | undefined;
  let field: string | undefined;
  let text = '';
  let position = 0;
  parser.onopentag = (tag) => {
    if (root === undefined) {
      root = tag.name;
      if (root !== 'source') failure = new FeedSyntaxError(`expected a <source> job feed, got <${root}>`);
      return;
    }
    if (tag.name === 'job' && !job) job = { position: ++position };
    else if (job && !field && FIELDS.has(tag.name.toLowerCase())) {
      field = tag.name.toLowerCase();
      text = '';
    }
  };
  const onText = (value: string) => {
    if (field && text.length < MAX_FIELD_CHARS) text += value.slice(0, MAX_FIELD_CHARS - text.length);
  };
  parser.ontext = onText;
  parser.oncdata = onText;
  parser.onclosetag = (name) => {
    if (job && field && name.toLowerCase() === field) {
      (job as unknown as Record<string, string>)[field] = text.trim();
      field = undefined;
    } else if (job && name === 'job') {
      ready.push(job);
      job = undefined;
    }
  };
  parser.onerror = (error) => {
    failure = new FeedSyntaxError(error.message.split('\n')[0]);
  };
  const decoder = new TextDecoder('utf-8');
  for await (const chunk of chunks) {
    try {
      parser.write(typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true }));
    } catch (error) {
      failure ??= new FeedSyntaxError((error as Error).message.split('\n')[0]);
    }
    if (failure) throw failure;
    while (ready.length) yield ready.shift()!;
  }
  try {
    parser.write(decoder.decode()).close();
  } catch (error) {
    failure ??= new FeedSyntaxError((error as Error).message.split('\n')[0]);
  }
  if (failure) throw failure;
  if (root === undefined) throw new FeedSyntaxError('the feed is empty');
  while (ready.length) yield ready.shift()!;
}

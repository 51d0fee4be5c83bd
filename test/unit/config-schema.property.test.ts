/** Invariants of the schema's setting kinds, over every setting of each kind. */
import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { ConfigError, parseSettings, SETTINGS } from '../../src/kernel/config';

const refusal = (env: Record<string, string>): ConfigError | undefined => {
  try {
    parseSettings(env);
  } catch (error) {
    assert.ok(error instanceof ConfigError, String(error));
    return error;
  }
  return undefined;
};

describe('configuration schema (properties)', () => {
  const integers = SETTINGS.filter((s) => s.type === 'integer');

  it('an integer setting takes any value in its range and refuses one outside, naming itself', () => {
    fc.assert(
      fc.property(fc.constantFrom(...integers), fc.nat({ max: 2_000_000_000 }), (setting, value) => {
        const inRange = value >= (setting.minimum ?? 0) && (setting.maximum === undefined || value <= setting.maximum);
        const error = refusal({ [setting.env]: String(value) });
        if (inRange) assert.equal(error, undefined, `${setting.env}=${value}`);
        else assert.equal(error?.env, setting.env);
        if (inRange) assert.equal((parseSettings({ [setting.env]: ` ${value} ` }) as Record<string, unknown>)[setting.env], value);
      }),
    );
  });

  it('a blank value is the default, for every setting', () => {
    const defaults = parseSettings({}) as Record<string, unknown>;
    for (const setting of SETTINGS) {
      const blank = parseSettings({ [setting.env]: '  ' }) as Record<string, unknown>;
      assert.deepEqual(blank[setting.env], defaults[setting.env], setting.env);
    }
  });

  it('an enum setting refuses any other word, listing the accepted ones', () => {
    fc.assert(
      fc.property(fc.constantFrom(...SETTINGS.filter((s) => s.values)), fc.stringMatching(/^[a-z_]{1,12}$/), (setting, word) => {
        fc.pre(!setting.values!.includes(word));
        const error = refusal({ [setting.env]: word });
        assert.equal(error?.env, setting.env);
        assert.match(error!.message, new RegExp(`must be one of ${setting.values!.join(', ')}`));
      }),
    );
  });

  it('a URL setting refuses a scheme it does not list', () => {
    for (const setting of SETTINGS.filter((s) => s.schemes)) {
      assert.equal(refusal({ [setting.env]: 'ftp://files.example/x' })?.env, setting.env);
      assert.equal(refusal({ [setting.env]: 'no url' })?.env, setting.env);
      assert.equal(refusal({ [setting.env]: `${setting.schemes![0]}://host.example/` }), undefined, setting.env);
    }
  });
});

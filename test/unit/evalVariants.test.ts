import * as assert from 'node:assert/strict';
import { DEFAULT_POLICY } from '../../src/core/chunking/policy';
import { DEFAULT_FIELD_PARAMS } from '../../src/core/index/fields';
import { storeKey, variantFromSettings, variantsFromConfig, VariantError } from '../../src/eval/variants';

describe('eval: engine settings variants', () => {
  it('turns key=value settings into engine overrides', () => {
    const v = variantFromSettings(['ranking.exactDefinition=2', 'fieldParams.symbol.weight=4', 'fields.body.b=0.5', 'policy.astMaxChars=1200', 'policy.lineChunkChars.code=800', 'policy.suffixChunkChars..md=600', 'strategy=lines']);
    assert.deepEqual(v, {
      name: 'ranking.exactDefinition=2,fieldParams.symbol.weight=4,fields.body.b=0.5,policy.astMaxChars=1200,policy.lineChunkChars.code=800,policy.suffixChunkChars..md=600,strategy=lines',
      ranking: { exactDefinition: 2 },
      fieldParams: { symbol: { ...DEFAULT_FIELD_PARAMS.symbol, weight: 4 }, body: { ...DEFAULT_FIELD_PARAMS.body, b: 0.5 } },
      policy: { astMaxChars: 1200, lineChunkChars: { ...DEFAULT_POLICY.lineChunkChars, code: 800 }, suffixChunkChars: { '.md': 600 } },
      strategy: 'lines',
    });
  });

  it("a signal's share may be 0 (the signal off); a factor may not", () => {
    assert.deepEqual(variantFromSettings(['ranking.pastCommitWords=0', 'ranking.pastCommit=0', 'ranking.fileCoverage=0']).ranking, { pastCommitWords: 0, pastCommit: 0, fileCoverage: 0 });
    assert.throws(() => variantFromSettings(['ranking.pastCommitWords=-1']), /ranking.pastCommitWords must be a number >= 0/);
  });

  for (const [setting, message] of [
    ['ranking.nope=2', /unknown ranking parameter 'nope'/],
    ['ranking.test=0', /ranking.test must be a number > 0/],
    ['fieldParams.body.b=1.5', /between 0 and 1/],
    ['fieldParams.title.weight=2', /unknown field 'title'/],
    ['policy.astMaxChars=ten', /policy.astMaxChars must be a number >= 50/],
    ['policy.lineChunkChars.music=400', /unknown setting/],
    ['strategy=tokens', /strategy must be ast or lines/],
    ['exactDefinition', /key=value/],
  ] as const) {
    it(`rejects ${setting}`, () => assert.throws(() => variantFromSettings([setting]), (e: unknown) => e instanceof VariantError && message.test(e.message)));
  }

  it('reads variants from a config file, structured or as settings', () => {
    const variants = variantsFromConfig({
      variants: [
        { name: 'small code chunks', policy: { lineChunkChars: { code: 400 } } },
        { name: 'flat', settings: ['ranking.definition=1', 'ranking.exactDefinition=1'] },
      ],
    });
    assert.deepEqual(variants, [
      { name: 'small code chunks', policy: { lineChunkChars: { ...DEFAULT_POLICY.lineChunkChars, code: 400 } } },
      { name: 'flat', ranking: { definition: 1, exactDefinition: 1 } },
    ]);
    assert.throws(() => variantsFromConfig({ variants: [{ policy: {} }] }), /needs a "name"/);
    assert.throws(() => variantsFromConfig({ variants: [{ name: 'x', rankking: {} }] }), /unknown key "rankking"/);
    assert.throws(() => variantsFromConfig({ nothing: true }), /variants/);
  });

  it('variants that chunk alike share an index store; chunking changes get their own', () => {
    const base = storeKey({ name: 'default' });
    assert.equal(storeKey(variantFromSettings(['ranking.test=0.3'])), base);
    assert.equal(storeKey(variantFromSettings([`policy.astMaxChars=${DEFAULT_POLICY.astMaxChars}`])), base);
    assert.notEqual(storeKey(variantFromSettings(['policy.astMaxChars=1200'])), base);
    assert.notEqual(storeKey(variantFromSettings(['strategy=lines'])), base);
  });
});

import { strict as assert } from 'node:assert';
import { candidateStore, noCandidateData, type CandidateDataStore } from '../../src/features/privacy/domain/candidate-data';
import { CandidateDataRegistry } from '../../src/features/privacy/domain/candidate-data-registry';

const store = (name: string, tables: string[]): CandidateDataStore => ({
  name,
  description: `the ${name} store of candidate data`,
  tables,
  export: async () => [],
  erase: async () => ({ erased: 0 }),
});

describe('privacy: the candidate data registry', () => {
  it('reports tables nobody registered, names of missing tables and contradictions', () => {
    const registry = new CandidateDataRegistry([
      candidateStore(store('notes', ['hi_notes', 'hi_gone'])),
      noCandidateData('hi_settings', 'organization settings only'),
      noCandidateData('hi_notes', 'claimed free by mistake'),
    ]);
    assert.deepEqual(registry.coverage(['hi_notes', 'hi_settings', 'hi_new_table']), {
      unregistered: ['hi_new_table'],
      unknown: ['hi_gone'],
      contradictory: ['hi_notes'],
    });
  });

  it('refuses a store registered twice, a name not in snake_case, and a declaration without a reason', () => {
    assert.throws(() => new CandidateDataRegistry([candidateStore(store('a', [])), candidateStore(store('a', []))]), /registered twice/);
    assert.throws(() => new CandidateDataRegistry([candidateStore(store('Bad-Name', []))]), /snake_case/);
    assert.throws(() => new CandidateDataRegistry([noCandidateData('hi_x', 'none')]), /without a reason/);
  });
});

// How deep a task text's keyword pool is: the files localization may reorder, bounded because
// each costs the scoring of its chunks.
import { checkAll } from './check';
import { taskPoolFiles } from '../../src/core/engine/searchAnswers';

describe('task texts: the keyword pool localization reorders', () => {
  checkAll(
    [
      { name: 'the default page of ten files ranks thirty', input: [10, 0], expected: 30 },
      { name: 'a short page still ranks thirty', input: [3, 0], expected: 30 },
      { name: 'a longer page ranks three times its files', input: [20, 0], expected: 60 },
      { name: 'a later page counts the files before it', input: [10, 10], expected: 60 },
    ],
    ([limit, offset]) => taskPoolFiles(limit as number, offset as number),
  );
});

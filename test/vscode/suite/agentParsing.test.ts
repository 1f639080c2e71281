// The pure parts of the agent features, checked in the host: how @cairn reads a question, and
// how the runtime for the MCP server / eval child process is chosen.
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { classify, packTask, refsSubject, whereSubject } from '../../../src/vscode/agent/chatParticipant';
import { invocationMessages } from '../../../src/vscode/agent/lmTools';
import { findOnPath, pickNodeRuntime } from '../../../src/vscode/agent/nodeRuntime';
import { toolSpecs } from '../../../src/tools/tools';

describe('Agent features: reading questions and picking a runtime', () => {
  it('classifies chat questions', () => {
    const cases: Array<[string, string | undefined, 'where' | 'refs' | 'pack']> = [
      ['who calls createGreeter?', undefined, 'refs'],
      ['where is Vector.length used', undefined, 'refs'],
      ['references to greet', undefined, 'refs'],
      ['greet', 'refs', 'refs'],
      ['where is Greeter defined?', undefined, 'where'],
      ["where's the retry logic", undefined, 'where'],
      ['find parseConfig', undefined, 'where'],
      ['Vector.normalize', undefined, 'where'],
      ['what do I need to read to add a median helper?', undefined, 'pack'],
      ['I want to fix the greeting punctuation for empty names', undefined, 'pack'],
      ['anything at all here', 'where', 'where'],
      ['where is it', 'pack', 'pack'],
    ];
    for (const [prompt, command, expected] of cases) assert.equal(classify(prompt, command), expected, prompt);
  });

  it('finds the subject of a "where" question', () => {
    assert.deepEqual(whereSubject('where is Greeter defined?'), { symbol: 'Greeter', query: 'Greeter' });
    assert.deepEqual(whereSubject('where is `greet_all` implemented'), { symbol: 'greet_all', query: 'greet_all' });
    assert.deepEqual(whereSubject('where is Vector.normalize'), { symbol: 'Vector.normalize', query: 'Vector.normalize' });
    assert.deepEqual(whereSubject('where is the greeting punctuation handled?'), { query: 'greeting punctuation handled' });
  });

  it('finds the name a references question is about', () => {
    assert.equal(refsSubject('who calls createGreeter?'), 'createGreeter');
    assert.equal(refsSubject('where is Vector.length used'), 'Vector.length');
    assert.equal(refsSubject('references to `greet_all`'), 'greet_all');
    assert.equal(refsSubject('greet'), 'greet');
    assert.equal(refsSubject('who uses it'), 'it');
  });

  it('takes the task out of "what do I need to read to …"', () => {
    assert.equal(packTask('what do I need to read to add a median helper?'), 'add a median helper');
    assert.equal(packTask('What should I look at before changing the retry policy'), 'changing the retry policy');
    assert.equal(packTask('fix the parser'), 'fix the parser');
  });

  it('asks for confirmation only before refresh_index (reads run without one)', () => {
    for (const spec of toolSpecs) {
      const prepared = invocationMessages(spec, { query: 'retry', paths: ['src/a.ts'] }, 'api');
      assert.ok(typeof prepared.invocationMessage === 'string' && prepared.invocationMessage.includes('api'), spec.name);
      if (spec.name === 'refresh_index') {
        const message = prepared.confirmationMessages?.message;
        assert.ok(message, 'refresh_index has no confirmation');
        assert.match(typeof message === 'string' ? message : message.value, /`src\/a\.ts` of \*\*api\*\*/);
      } else assert.equal(prepared.confirmationMessages, undefined, `${spec.name} asks for confirmation`);
    }
  });

  it('runs the CLI with Node: the host’s own, else node from PATH, else Electron as Node', async () => {
    const node = await pickNodeRuntime({ node: '24.0.0' } as NodeJS.ProcessVersions, '/opt/node/bin/node', '/usr/bin', async () => 24);
    assert.deepEqual([node.command, node.env], ['/opt/node/bin/node', {}]);
    const electron = { node: '22.1.0', electron: '37.0.0' } as unknown as NodeJS.ProcessVersions;
    const fromPath = await pickNodeRuntime(electron, '/app/code', process.env.PATH, async () => 22);
    if (findOnPath(process.env.PATH)) assert.deepEqual([fromPath.command, fromPath.env], [findOnPath(process.env.PATH), {}]);
    const tooOld = await pickNodeRuntime(electron, '/app/code', process.env.PATH, async () => 18);
    assert.deepEqual([tooOld.command, tooOld.env], ['/app/code', { ELECTRON_RUN_AS_NODE: '1' }]);
    const none = await pickNodeRuntime(electron, '/app/code', '', async () => 22);
    assert.deepEqual([none.command, none.env], ['/app/code', { ELECTRON_RUN_AS_NODE: '1' }]);
    assert.equal(findOnPath('/a:/b', 'linux', (p) => p === '/b/node'), '/b/node');
    assert.equal(findOnPath('C:\\a;C:\\b', 'win32', (p) => p.endsWith('node.exe')), path.join('C:\\a', 'node.exe'));
  });
});

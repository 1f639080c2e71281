// Test-only extension, loaded next to Cairn by scripts/vscode-test.mjs (every folder under
// test/vscode/extensions/ is). It registers a fake language model (vendor "cairn-test", id "fake-echo")
// so chat requests reach chat participants offline: without any model, VS Code answers
// "Language model unavailable" before calling the participant.
//
// Default reply: "echo: <last user message>". Tests can script replies through the exports:
//   const lm = vscode.extensions.getExtension('cairn-test.fake-lm').exports;
//   lm.setResponder((messages, options) => [new vscode.LanguageModelToolCallPart('id1', 'cairn_search', { query: 'x' })]);
//   lm.requests  // every request seen: { messages, options }
//   lm.setResponder(undefined)  // back to echo
// eslint-disable-next-line @typescript-eslint/no-require-imports -- a plain CommonJS extension, no build step
const vscode = require('vscode');

const textOf = (message) => message.content.map((p) => (p instanceof vscode.LanguageModelTextPart ? p.value : '')).join('');

function activate(context) {
  let responder;
  const requests = [];
  context.subscriptions.push(vscode.lm.registerLanguageModelChatProvider('cairn-test', {
    provideLanguageModelChatInformation: async () => [{
      id: 'fake-echo',
      name: 'Fake Echo',
      family: 'fake',
      version: '1',
      maxInputTokens: 128000,
      maxOutputTokens: 8000,
      capabilities: { toolCalling: true },
      isUserSelectable: true,
      isDefault: true,
    }],
    provideLanguageModelChatResponse: async (_model, messages, options, progress) => {
      requests.push({ messages, options });
      const parts = responder
        ? await responder(messages, options)
        : [new vscode.LanguageModelTextPart(`echo: ${messages.length ? textOf(messages[messages.length - 1]) : ''}`)];
      for (const part of parts) progress.report(part);
    },
    provideTokenCount: async (_model, text) => Math.ceil((typeof text === 'string' ? text : textOf(text)).length / 4),
  }));
  return {
    requests,
    setResponder(fn) { responder = fn; },
  };
}

module.exports = { activate, deactivate() {} };

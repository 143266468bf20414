// extension.test.js loads extension.js with stand-ins for the vscode API
// and the language client, activates it and checks the server command it
// starts: the configured sieve program, `lsp`, and -I for each directory.
// (The editor itself is not here; the tests of sieve lsp drive Neovim.)
'use strict';
const assert = require('assert');
const Module = require('module');
const path = require('path');

const settings = { path: '/opt/bin/sieve', includePath: ['lib', '/shared'] };
const started = [];
const commands = {};

const fakes = {
  vscode: {
    workspace: {
      getConfiguration: () => ({ get: (k, d) => (k in settings ? settings[k] : d) }),
      onDidChangeConfiguration: () => ({ dispose() {} }),
    },
    commands: { registerCommand: (name, fn) => { commands[name] = fn; return { dispose() {} }; } },
    window: { showErrorMessage: (m) => { throw new Error(`unexpected error message: ${m}`); } },
  },
  'vscode-languageclient/node': {
    LanguageClient: class {
      constructor(id, name, server, client) {
        started.push({ id, server, client });
      }
      start() { return Promise.resolve(); }
      stop() { return Promise.resolve(); }
    },
  },
};
const load = Module._load;
Module._load = function (request, ...rest) {
  return request in fakes ? fakes[request] : load.call(this, request, ...rest);
};

(async () => {
  const ext = require(path.join(__dirname, '..', 'extension.js'));
  await ext.activate({ subscriptions: [] });
  assert.deepStrictEqual(started[0].server, {
    command: '/opt/bin/sieve',
    args: ['lsp', '-I', 'lib', '-I', '/shared'],
  });
  assert.deepStrictEqual(started[0].client.documentSelector, [{ language: 'sieve' }]);
  settings.path = '';
  settings.includePath = [];
  await commands['sieve.restartServer']();
  assert.deepStrictEqual(started[1].server, { command: 'sieve', args: ['lsp'] });
  const pkg = require('../package.json');
  assert.strictEqual(pkg.contributes.configuration.properties['sieve.path'].default, 'sieve');
  console.log('✓ extension.js starts sieve lsp as configured');
})().catch((err) => {
  console.error(err);
  process.exit(1);
});

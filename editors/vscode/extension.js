// The sieve extension: the .sieve language (grammar and language
// configuration, declared in package.json) and a client of the language
// server `sieve lsp`, started as the settings `sieve.path` and
// `sieve.includePath` say.
'use strict';
const vscode = require('vscode');
const { LanguageClient } = require('vscode-languageclient/node');

let client;

// serverOptions runs `sieve lsp [-I DIR]...` on stdio.
function serverOptions() {
  const cfg = vscode.workspace.getConfiguration('sieve');
  const args = ['lsp'];
  for (const dir of cfg.get('includePath', [])) args.push('-I', dir);
  return { command: cfg.get('path', 'sieve') || 'sieve', args };
}

async function start() {
  client = new LanguageClient('sieve', 'Sieve', serverOptions(), {
    documentSelector: [{ language: 'sieve' }],
  });
  try {
    await client.start();
  } catch (err) {
    const cmd = serverOptions().command;
    vscode.window.showErrorMessage(
      `sieve: cannot start the language server "${cmd} lsp": ${err.message || err} (install sieve, or set sieve.path)`,
    );
  }
}

async function restart() {
  if (client) await client.stop().catch(() => {});
  await start();
}

function activate(context) {
  context.subscriptions.push(
    vscode.commands.registerCommand('sieve.restartServer', restart),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration('sieve')) restart();
    }),
  );
  return start();
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };

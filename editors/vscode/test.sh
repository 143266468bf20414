#!/usr/bin/env bash
# The VS Code extension's tests (called from .ci/run): install the pinned
# tools, test the TextMate grammar with vscode-tmgrammar-test (the unit
# tests in test/ and the corpus of grammar.md's and the repository's
# specs), load the extension, and package the .vsix.
set -euo pipefail
cd "$(dirname "$0")"

npm ci --prefer-offline --no-audit --no-fund --loglevel=error

corpus=$(mktemp -d)
trap 'rm -rf "$corpus"' EXIT
node test/corpus.js "$corpus"
npx vscode-tmgrammar-test --compact 'test/*.test.sieve' "$corpus/*.sieve"
node test/extension.test.js

rm -f ./*.vsix
npx vsce package --skip-license

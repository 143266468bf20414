// corpus.js writes a syntax test for vscode-tmgrammar-test from every
// ```sieve block of grammar.md and every .sieve file under specs/ and
// stdlib/: each source line followed by an assertion that none of its
// tokens is invalid.illegal.sieve (what the lexer rejects), and that a
// declaration at the start of a line is one (no block of the grammar runs
// past its end), so that the grammar is checked against the language's
// own examples.
//
// Usage: node test/corpus.js OUTDIR
'use strict';
const fs = require('fs');
const path = require('path');

const root = path.resolve(__dirname, '../../..');
const header = '// SYNTAX TEST "source.sieve"';

// sources returns [name, text] for each example: grammar.md's blocks and
// the spec and library files.
function sources() {
  const out = [];
  const md = fs.readFileSync(path.join(root, 'grammar.md'), 'utf8');
  for (const m of md.matchAll(/```sieve\n([\s\S]*?)```/g)) {
    const line = md.slice(0, m.index).split('\n').length + 1;
    out.push([`grammar.md-line${line}`, m[1]]);
  }
  for (const dir of ['specs', 'stdlib']) {
    for (const f of walk(path.join(root, dir))) {
      out.push([path.relative(root, f).replace(/\.sieve$/, '').replaceAll(path.sep, '_'), fs.readFileSync(f, 'utf8')]);
    }
  }
  return out;
}

function walk(dir) {
  const out = [];
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...walk(p));
    else if (e.name.endsWith('.sieve')) out.push(p);
  }
  return out;
}

// testCase interleaves the lines of src with their assertions.
function testCase(name, src) {
  const out = [header];
  src.replace(/\n$/, '').split('\n').forEach((line, i) => {
    if (/^\/\/\s*(\^|<~*-)/.test(line)) {
      throw new Error(`${name}: line ${i + 1} reads as an assertion: ${line}`);
    }
    out.push(line);
    if (line.length > 0) out.push(`// <${'-'.repeat(line.length)} - invalid.illegal.sieve`);
    const decl = /^(import|controller|workload|policy|mask|invariant|plan|test)\s+[A-Za-z_"`]/.exec(line);
    if (decl) {
      const kw = decl[1];
      const scope = kw === 'import' ? 'keyword.control.import.sieve' : `storage.type.${kw}.sieve`;
      out.push(`// <${'-'.repeat(kw.length)} ${scope}`);
    }
  });
  return out.join('\n') + '\n';
}

function main() {
  const dir = process.argv[2];
  if (!dir) {
    console.error('usage: node test/corpus.js OUTDIR');
    process.exit(2);
  }
  fs.mkdirSync(dir, { recursive: true });
  const all = sources();
  for (const [name, src] of all) {
    fs.writeFileSync(path.join(dir, `${name}.sieve`), testCase(name, src));
  }
  console.log(`corpus: ${all.length} examples in ${dir}`);
}

main();

package syntax

import (
	"github.com/alecthomas/participle/v2/lexer"
)

// rules is the lexer table: the token rules, tried in order at each
// position; the first that matches wins. The scanner (scan.go) implements
// it by hand for speed. Resource keys come before durations, numbers and
// identifiers, because a key starts like any of them ("pod/...",
// "2/..."). The Bad* rules and Invalid come last and only match what no
// other rule accepts, so that the lexer never fails and Parse can name
// the problem.
var rules = []lexer.SimpleRule{
	{Name: "Comment", Pattern: `//[^\n]*|/\*([^*]|\*+[^*/])*\*+/`},
	{Name: "Whitespace", Pattern: `[ \t\r\n]+`},
	{Name: "RawString", Pattern: "`[^`]*`"},
	{Name: "String", Pattern: `"(\\.|[^"\\\n])*"`},
	{Name: "Key", Pattern: keySeg + `/` + keySeg + `(/` + keySeg + `)?`},
	{Name: "Duration", Pattern: `[0-9]+(ns|us|µs|ms|s|m|h)([0-9]+(ns|us|µs|ms|s|m|h))*`},
	{Name: "Number", Pattern: `[0-9]+(\.[0-9]+)?([eE][-+]?[0-9]+)?`},
	{Name: "Ident", Pattern: `[A-Za-z_][A-Za-z0-9_]*`},
	{Name: "Punct", Pattern: `\+=|==|[-+*{}\[\]():,.;&|#=]`},
	{Name: "BadComment", Pattern: `/\*[\s\S]*`},
	{Name: "BadRawString", Pattern: "`[\\s\\S]*"},
	{Name: "BadString", Pattern: `"(\\.|[^"\\\n])*\\?`},
	{Name: "Invalid", Pattern: `[\s\S]`},
}

// keySeg is one segment of a resource key: name characters, globs, and
// ${param} references.
const keySeg = `([A-Za-z0-9_.*?-]|\$\{[A-Za-z_][A-Za-z0-9_]*\})+`

// lexDef is the participle lexer definition: the token types of rules and
// the scanner that implements them.
var lexDef = newDefinition()

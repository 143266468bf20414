// SYNTAX TEST "source.sieve" "tokens of the lexer table (lang/syntax/lexer.go)"

// a line comment
// <---------------- comment.line.double-slash.sieve
/* a block
   comment */
// ^^^^^^^^^^ comment.block.sieve
controller c {
  args  ["say \"hi\"", `raw
//       ^^^^^^^^^^^^ string.quoted.double.sieve
//            ^^ constant.character.escape.sieve
//                ^^ constant.character.escape.sieve
//                     ^^^^ string.quoted.other.raw.sieve
text`] // after
// <----- string.quoted.other.raw.sieve
//     ^^^^^^^^ comment.line.double-slash.sieve
  quiet 1h30m
//      ^^^^^ constant.numeric.duration.sieve
  runs  2
//      ^ constant.numeric.sieve
  x     1.5e3
//      ^^^^^ constant.numeric.sieve
  y     10ms
//      ^^^^ constant.numeric.duration.sieve
  y     5µs
//      ^^^ constant.numeric.duration.sieve
  z     30sec
//      ^^^ constant.numeric.duration.sieve
//         ^^ variable.other.sieve - constant.numeric.duration.sieve
  k     pvc/default/data-${name}-0
//      ^^^^^^^^^^^^^^^^^^^^^^^^^^ constant.other.key.sieve
//                       ^^ constant.other.key.sieve punctuation.definition.interpolation.begin.sieve
//                         ^^^^ constant.other.key.sieve variable.other.sieve
  d     datastore.example.com/default/ds
//      ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ constant.other.key.sieve
  n     namespace/prod // not a key
//      ^^^^^^^^^^^^^^ constant.other.key.sieve
//                     ^^^^^^^^^^^^ comment.line.double-slash.sieve - constant.other.key.sieve
  g     pod/*/ds-?
//      ^^^^^^^^^^ constant.other.key.sieve
  b     [true, false, null]
//       ^^^^ constant.language.sieve
//             ^^^^^ constant.language.sieve
//                    ^^^^ constant.language.sieve
//           ^ punctuation.separator.comma.sieve
  e     (replicas + 1) * -2
//       ^^^^^^^^ variable.other.sieve
//                ^ keyword.operator.arithmetic.sieve
//                     ^ keyword.operator.arithmetic.sieve
//                       ^ keyword.operator.arithmetic.sieve
//                        ^ constant.numeric.sieve
  q     masks.default
//      ^^^^^ variable.other.sieve
//           ^ punctuation.accessor.sieve
  args += ["--fixed"]
//     ^^ keyword.operator.assignment.augmented.sieve
  bad   @ $ / "open
//      ^ invalid.illegal.sieve
//        ^ invalid.illegal.sieve
//          ^ invalid.illegal.sieve
//            ^^^^^ invalid.illegal.sieve
}
// <- punctuation.section.block.end.sieve - invalid.illegal.sieve

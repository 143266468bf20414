" Vim syntax file
" Language: the .sieve spec language of sieve (grammar.md)
" Put editors/nvim first on 'runtimepath' so that this file, not the
" built-in syntax of the mail-filter language Sieve (RFC 5228), colours
" *.sieve files. lang/syntax's TestVimKeywords holds the keywords of the
" `syn keyword` lines equal to the grammar's.

if exists('b:current_syntax')
  finish
endif

syn keyword sieveTodo contained TODO FIXME XXX NOTE
syn match   sieveComment '//.*$' contains=sieveTodo,@Spell
syn region  sieveComment start='/\*' end='\*/' contains=sieveTodo,@Spell

syn match   sieveAttribute '^\s*\zs\h\w*\ze\s*\%(+=\)\=\s\+\S'
syn match   sieveField '\h\w*\ze\s*:\%(\s\|$\)'

syn keyword sieveDeclaration import controller workload policy mask invariant plan test nextgroup=sieveName skipwhite
syn match   sieveName '\h\w*' contained
syn keyword sieveStep apply patch delete scale wait settle sleep explore
syn keyword sieveAction crash restart stale hold release pause resume error appfault
syn keyword sieveKeyword set merge json strategic to until exists gone ready where within else continue max only skip seed states
syn keyword sieveKeyword key path value whole in end history always eventually never between and
syn keyword sieveKeyword on off at after failed sending write create update deletecollection quiet call exec read get list for reading subresource cluster changing changed without
syn keyword sieveConstant true false null

syn match   sieveNumber '\<\d\+\%(\.\d\+\)\=\%([eE][-+]\=\d\+\)\=\>'
syn match   sieveDuration '\<\%(\d\+\%(ns\|us\|µs\|ms\|s\|m\|h\)\)\+\>'
syn match   sieveKey '\%([A-Za-z0-9_.*?-]\|\${\h\w*}\)\+\%(/\%([A-Za-z0-9_.*?-]\|\${\h\w*}\)\+\)\{1,2}' contains=sieveInterpolation
syn match   sieveInterpolation '\${\h\w*}' contained
syn match   sieveOperator '+=\|==\|[-+*;&|#=]'

syn match   sieveEscape '\\.' contained
syn region  sieveString start=+"+ skip=+\\.+ end=+"+ oneline contains=sieveEscape
syn region  sieveRawString start=+`+ end=+`+ contains=sieveInterpolation

hi def link sieveTodo          Todo
hi def link sieveComment       Comment
hi def link sieveAttribute     Identifier
hi def link sieveField         Identifier
hi def link sieveDeclaration   Structure
hi def link sieveName          Function
hi def link sieveStep          Statement
hi def link sieveAction        Statement
hi def link sieveKeyword       Keyword
hi def link sieveConstant      Boolean
hi def link sieveNumber        Number
hi def link sieveDuration      Number
hi def link sieveKey           Constant
hi def link sieveInterpolation Special
hi def link sieveOperator      Operator
hi def link sieveEscape        SpecialChar
hi def link sieveString        String
hi def link sieveRawString     String

let b:current_syntax = 'sieve'

" Vim filetype plugin
" Language: the .sieve spec language of sieve (grammar.md), in place of the
" built-in plugin of the mail-filter language Sieve (RFC 5228).

if exists('b:did_ftplugin')
  finish
endif
let b:did_ftplugin = 1

setlocal comments=s1:/*,mb:*,ex:*/,:// commentstring=//\ %s
let b:undo_ftplugin = 'setlocal comments< commentstring<'

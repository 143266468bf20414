//go:build !unix

package nofollow

// noFollow is none: OpenFile looks at the path before it opens it.
const noFollow = 0

package quote

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// MaxBytes bounds the bytes of a string Name quotes whole.
const MaxBytes = 64

// maxList bounds the strings List quotes.
const maxList = 8

// Name quotes s for a message, cut at MaxBytes bytes (on a rune
// boundary) with its length said: "abc…" (5242880 bytes).
func Name(s string) string {
	if len(s) <= MaxBytes {
		return strconv.Quote(s)
	}
	cut := MaxBytes
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return strconv.Quote(s[:cut]) + fmt.Sprintf("... (%d bytes)", len(s))
}

// List quotes the first 8 of s with Name, comma-separated, and says how
// many more there are.
func List(s []string) string {
	q := make([]string, 0, min(len(s), maxList+1))
	for i, v := range s {
		if i == maxList {
			q = append(q, fmt.Sprintf("and %d more", len(s)-maxList))
			break
		}
		q = append(q, Name(v))
	}
	return strings.Join(q, ", ")
}

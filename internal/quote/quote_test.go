package quote

import (
	"strings"
	"testing"
)

func TestName(t *testing.T) {
	if got := Name("age"); got != `"age"` {
		t.Errorf("Name(age) = %s", got)
	}
	long := strings.Repeat("é", 1<<20) // 2 MiB, two bytes a rune
	got := Name(long)
	if len(got) > 100 || !strings.HasPrefix(got, `"`+strings.Repeat("é", 32)+`"`) || !strings.HasSuffix(got, "(2097152 bytes)") {
		t.Errorf("Name(2 MiB) = %s", got)
	}
	odd := "a" + strings.Repeat("é", 40) // the cut falls inside a rune
	if got := Name(odd); !strings.HasPrefix(got, `"a`+strings.Repeat("é", 31)+`"...`) {
		t.Errorf("Name cuts inside a rune: %s", got)
	}
}

func TestList(t *testing.T) {
	if got := List([]string{"a", "b"}); got != `"a", "b"` {
		t.Errorf("List = %s", got)
	}
	s := make([]string, 10)
	for i := range s {
		s[i] = strings.Repeat("x", 1000)
	}
	if got := List(s); len(got) > 8*90+20 || !strings.HasSuffix(got, "and 2 more") {
		t.Errorf("List(10 long names) = %d bytes: %.200s", len(got), got)
	}
}

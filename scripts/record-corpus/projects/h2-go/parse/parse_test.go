package parse

import "testing"

func TestFields(t *testing.T) {
	if n := len(Fields("a b  c")); n != 3 {
		t.Fatalf("len = %d", n)
	}
}

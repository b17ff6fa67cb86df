package format

import "testing"

func TestSize(t *testing.T) {
	cases := []struct {
		n    int
		want string
	}{
		{10, "10 B"},
		{3000, "2 KiB"},
		{5000, "4 KiB"},
	}
	for _, c := range cases {
		if got := Size(c.n); got != c.want {
			t.Errorf("Size(%d): expected %q but got %q", c.n, c.want, got)
		}
	}
}

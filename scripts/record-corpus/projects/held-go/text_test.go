package text

import "testing"

func TestTitle(t *testing.T) {
	tests := map[string]struct{ in, want string }{
		"word":  {"go", "Go"},
		"empty": {"", ""},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			if got := Title(tc.in); got != tc.want {
				t.Fatalf("expected %q, got %q", tc.want, got)
			}
		})
	}
}

func TestCount(t *testing.T) {
	t.Log("counting")
	got := Count("a-b-c", "-")
	if got != 2 {
		t.Errorf("Count() = %d, want %d", got, 2)
	}
}

package temp

import "testing"

func TestCToF(t *testing.T) {
	cases := []struct {
		name string
		c, f float64
	}{
		{"freezing point", 0, 32},
		{"body/normal", 37, 98.6},
		{"boiling", 100, 212},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := CToF(tc.c); got != tc.f {
				t.Errorf("CToF(%v) = %v, want %v", tc.c, got, tc.f)
			}
		})
	}
}

func TestLabel(t *testing.T) {
	got := Label("crème brûlée")
	want := "Crème brûlée"
	if got != want {
		t.Errorf("Label mismatch:\n got: %q\nwant: %q", got, want)
	}
}

func TestParse(t *testing.T) {
	n, err := Parse("12a")
	if err == nil {
		t.Fatalf("Parse(%q) returned %d and no error", "12a", n)
	}
}

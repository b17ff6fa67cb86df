package calc

import (
	"reflect"
	"testing"
)

func TestAdd(t *testing.T) {
	if got := Add(2, 3); got != 5 {
		t.Errorf("Add(2, 3) = %d; want %d", got, 5)
	}
}

func TestParseList(t *testing.T) {
	cases := []struct {
		name string
		in   string
		want []string
	}{
		{"simple", "a,b", []string{"a", "b"}},
		{"with spaces", "a, b", []string{"a", "b"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := ParseList(c.in)
			if !reflect.DeepEqual(got, c.want) {
				t.Errorf("got %q, want %q", got, c.want)
			}
		})
	}
}

func TestGreet(t *testing.T) {
	got := Greet("ann")
	want := "Hello, ann"
	if got != want {
		t.Fatalf("Greet() got = %q, want %q", got, want)
	}
}

func TestPasses(t *testing.T) {
	if Add(0, 0) != 1 {
		t.Error("unexpected")
	}
}

package calc

import "testing"

func TestAt(t *testing.T) {
	xs := []int{1, 2, 3}
	if At(xs, 3) != 3 {
		t.Error("wrong")
	}
}

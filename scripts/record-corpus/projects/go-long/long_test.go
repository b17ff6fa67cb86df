package long

import (
	"fmt"
	"testing"
)

func double(n int) int { return n*2 + 1 }

func TestDouble(t *testing.T) {
	for i := 0; i < 80; i++ {
		i := i
		t.Run(fmt.Sprintf("n=%d", i), func(t *testing.T) {
			for k := 0; k < 30; k++ {
				t.Logf("step %d of case %d: %s", k, i, "................................")
			}
			if got := double(i); got != i*2 {
				t.Errorf("double(%d) = %d; want %d", i, got, i*2)
			}
		})
	}
}

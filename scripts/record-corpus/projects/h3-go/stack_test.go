package stack

import "testing"

func checkPop(t *testing.T, s *Stack, want int) {
	t.Helper()
	if got := s.Pop(); got != want {
		t.Errorf("Pop() = %d, want %d", got, want)
	}
}

func TestLIFO(t *testing.T) {
	s := &Stack{}
	s.Push(1)
	s.Push(2)
	checkPop(t, s, 2)
}

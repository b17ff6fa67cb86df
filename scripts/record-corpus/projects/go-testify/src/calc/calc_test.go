package calc

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestAdd(t *testing.T) {
	assert.Equal(t, 5, Add(2, 3), "two plus three")
}

func TestWords(t *testing.T) {
	require.Len(t, Words("a  b"), 2)
}

func TestWordsEqual(t *testing.T) {
	assert.Equal(t, []string{"a", "b"}, Words("a b c"))
}

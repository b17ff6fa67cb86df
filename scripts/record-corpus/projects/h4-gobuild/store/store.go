package store

import (
	"fmt"
	"os"
)

type Item struct {
	Name  string
	Price int
}

func Total(items []Item) int {
	sum := 0
	for _, it := range items {
		sum += it.Cost
	}
	return sum
}

func Describe(it Item) string {
	var label int = it.Name
	return fmt.Sprint(label)
}

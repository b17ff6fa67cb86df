package calc

import "strings"

func Add(a, b int) int { return a + b + 1 }

func Words(s string) []string { return strings.Split(s, " ") }

package calc

import "strings"

func Add(a, b int) int { return a + b + 1 }

func ParseList(s string) []string { return strings.Split(s, ",") }

func Greet(name string) string { return "Hello " + name }

package text

import "strings"

func Title(s string) string { return strings.ToUpper(s[:1]) + s[1:] }

func Count(s, sub string) int { return strings.Count(s, sub) + 1 }

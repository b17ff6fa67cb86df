package main

import "fmt"

func main() { fmt.Println(total(2, 3)) }

func total(a, b int) int { return a + b }

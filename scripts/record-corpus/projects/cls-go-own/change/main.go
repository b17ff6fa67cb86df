package main

import (
	"fmt"

	"github.com/acme/shop/money"
)

func main() { fmt.Println(money.Format(total(2, 3))) }

func total(a, b int) int { return a + b }

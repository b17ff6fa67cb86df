module example.com/zero

go 1.19

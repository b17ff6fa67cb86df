module example.com/text

go 1.19

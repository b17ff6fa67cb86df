module github.com/acme/shop

go 1.19

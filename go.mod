module github.com/specbridge/specbridge

go 1.26.8

module github.com/ratelab/ratelab

go 1.26

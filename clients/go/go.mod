module referee/starter

go 1.19

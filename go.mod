module loganalyze

go 1.26.0

require (
	github.com/DataDog/sketches-go v1.4.8
	github.com/google/go-cmp v0.7.0
	github.com/klauspost/compress v1.20.4
	github.com/spf13/pflag v1.1.0
)

require (
	github.com/stretchr/testify v1.12.1 // indirect
	google.golang.org/protobuf v1.36.12 // indirect
)

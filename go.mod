module loganalyze

go 1.26

require (
	github.com/DataDog/sketches-go v1.4.8
	github.com/klauspost/compress v1.20.4
	github.com/spf13/pflag v1.1.0
	gopkg.in/yaml.v3 v3.0.1
)

require google.golang.org/protobuf v1.36.11 // indirect

module loganalyze/deploy

go 1.26.0

replace loganalyze => ../

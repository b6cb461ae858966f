package htmlreport

import "html/template"

// pageTemplate lays out the page; html/template escapes every name and
// message from the results.
var pageTemplate = template.Must(template.New("report").Parse(`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{.Title}}</title>
<style>{{.CSS}}</style>
</head>
<body>
<h1>{{.Title}}</h1>
<p class="caption">{{.Runs}} runs of {{.Variants}} variants. Every time is in {{.TimeName}}; a spread is the {{.SpreadName}} of the solved runs. Click a column's header to sort by it; hover a chart's mark to name its run; click a legend entry to hide or show that variant in every chart.</p>
<nav><a href="#charts">Charts</a> · <a href="#scores">Scores</a> · <a href="#pivots">Pivots</a>{{if .Status}} · <a href="#optimisation">Optimisation</a>{{end}}{{if .Compare}} · <a href="#comparison">Comparison</a>{{end}} · <a href="#every-run">Every run</a></nav>

<h2 id="charts">Charts</h2>
<div class="legend" id="legend">{{range .Legend}}<button class="key" type="button" data-variant="{{.Variant}}" aria-pressed="true"><svg class="swatch" width="24" height="10" aria-hidden="true"><line x1="0" y1="5" x2="24" y2="5" stroke="{{.Color}}" stroke-width="2" stroke-dasharray="{{.Dash}}"/><circle cx="12" cy="5" r="3.5" fill="{{.Color}}"/></svg>{{.Variant}}</button>{{end}}</div>
<p class="caption">Cactus: per puzzle and task, each variant's solved instances (more than half the runs solved) in ascending order of their median time; further right and lower is better; the dotted red line is the time limit.</p>
<div class="charts">{{range .Cactus}}{{.}}{{end}}</div>
{{if .Scatter}}<p class="caption">{{.ScatterNote}}</p>
<div class="charts">{{.Scatter}}</div>{{end}}

<h2 id="scores">Scores per puzzle and task</h2>
{{range .Scores}}{{template "table" .}}{{end}}

<h2 id="pivots">Pivots: median per instance and variant, with spread</h2>
{{range .Pivots}}{{template "table" .}}{{end}}

{{if .Status}}<h2 id="optimisation">Optimisation runs by status</h2>
{{range .Status}}{{template "table" .}}{{end}}{{end}}

{{if .Compare}}<h2 id="comparison">Comparison</h2>
<p class="caption">{{.CompareNote}}</p>
<div class="charts">{{.CompareChart}}</div>
{{range .Compare}}{{template "table" .}}{{end}}{{end}}

<h2 id="every-run">Every run</h2>
<p><label>Filter <input id="runs-filter" type="search" size="40" placeholder="words all in the row: sat/ timeout queens:8"></label> <span id="runs-count"></span></p>
{{template "table" .RunsTable}}

<div id="tip" role="tooltip" hidden></div>
<script>{{.JS}}</script>
</body>
</html>
{{define "table"}}<p class="caption">{{.Title}}</p>
<table id="{{.ID}}"{{if .Sortable}} class="sortable"{{end}}>
<thead><tr>{{range $i, $h := .Header}}<th{{if index $.Numeric $i}} class="num"{{end}}>{{$h}}</th>{{end}}</tr></thead>
<tbody>{{range .Rows}}<tr>{{range .}}<td{{if .Num}} class="num"{{else if .Msg}} class="msg"{{end}}>{{if .Bold}}<strong>{{.Text}}</strong>{{else}}{{.Text}}{{end}}</td>{{end}}</tr>
{{end}}</tbody>
</table>
{{end}}`))

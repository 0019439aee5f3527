// The site's search ranks every page of the site above the package's API documentation
// (apidocs/): a reader who searches "benchmark" is after the pages on benchmarking, not a
// function named is_benchmark. Sphinx reads this file as html_search_scorer (docs/conf.py); the
// weights are Sphinx's own defaults.

var Scorer = {
  score: (result) => {
    const [docname, , , , score] = result;
    return docname.startsWith("apidocs/") ? score - 1000 : score;
  },
  objNameMatch: 11,
  objPartialMatch: 6,
  objPrio: { 0: 15, 1: 5, 2: -5 },
  objPrioDefault: 0,
  title: 15,
  partialTitle: 7,
  term: 5,
  partialTerm: 2,
};

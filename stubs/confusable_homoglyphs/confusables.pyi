# The one name we use: Unicode's confusables (UTS #39 data) as the library bundles them.
confusables_data: dict[str, list[dict[str, str]]]

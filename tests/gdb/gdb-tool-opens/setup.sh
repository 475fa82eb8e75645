# A file for the lab tool to open, traced (-t), then once more.
echo data > file

from imhotep_stats.cli import main

main()

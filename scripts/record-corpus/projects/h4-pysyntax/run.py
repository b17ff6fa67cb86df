from app.cli import main
import sys
main(sys.argv[1:])

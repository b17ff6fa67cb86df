// The built CLI's entry: --help is answered from the usage text alone, `list` loads the store only, any other command loads the CLI and the engine.
import { quietOnClosedOutput } from './closed-output';
import { helpAnswer } from './usage';

quietOnClosedOutput();
const argv = process.argv.slice(2);
const help = helpAnswer(argv);
if (help) {
  process[help.stream].write(help.text);
  process.exitCode = help.code;
} else {
  // `list` needs only the store: the engine is not loaded for it.
  const { main } = argv[0] === 'list' ? await import('./list-main') : await import('./main');
  process.exitCode = await main(argv);
}

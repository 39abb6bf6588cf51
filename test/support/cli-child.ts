// `distill …` in a child process of its own, run from source: for what only a real process shows
// (its exit, what reaches a closed pipe).
import { main } from '../../src/main/cli'

void main(['node', 'distill', ...process.argv.slice(2)])

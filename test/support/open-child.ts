// Opens a database in a child process (the test may run it as another user) and says what happened.
import { openDatabase } from '../../src/main/db/client'

try {
  openDatabase(process.argv[2]!).close()
  process.stdout.write('opened\n')
} catch (err) {
  process.stdout.write(`refused ${(err as Error).message}\n`)
}

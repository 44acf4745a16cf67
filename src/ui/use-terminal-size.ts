import { useStdout } from 'ink'
import { useEffect, useState } from 'react'

/** Columns and rows of the terminal, following resizes; 80x24 when the output is not a terminal. */
export function useTerminalSize(fixed?: { columns: number; rows: number }) {
  const { stdout } = useStdout()
  const [size, setSize] = useState(() => sizeOf(stdout))
  useEffect(() => {
    if (fixed) return
    const onResize = () => setSize(sizeOf(stdout))
    stdout.on('resize', onResize)
    return () => {
      stdout.off('resize', onResize)
    }
  }, [stdout, fixed])
  return fixed ?? size
}

const sizeOf = (stdout: NodeJS.WriteStream) => ({ columns: stdout.columns || 80, rows: stdout.rows || 24 })

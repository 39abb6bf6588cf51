import type { BrowserAuthFailure } from '../api/browser-transport'
import { LogoMark } from './icons'
import './access-needed.css'

const DETAIL: Record<BrowserAuthFailure, string> = {
  'no-token': 'The address has no access token, so Distill cannot let this page in.',
  rejected: 'The access token was refused. Distill makes a new one each time it starts, so an old link stops working.',
  unreachable: 'Distill did not answer. Make sure `distill serve` is still running.'
}

/** The whole page when browser mode cannot authenticate. */
export function AccessNeeded({ reason }: { reason: BrowserAuthFailure }) {
  return (
    <main className="access-needed">
      <div className="access-card">
        <LogoMark className="access-logo" width={36} height={36} />
        <h1>This page needs the link with its access token.</h1>
        <p>
          Open the URL printed by <code>distill serve</code>.
        </p>
        <p className="muted">{DETAIL[reason]}</p>
      </div>
    </main>
  )
}

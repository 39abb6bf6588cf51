import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { connect } from './api/connect'
import { App } from './App'
import { AccessNeeded } from './components/access-needed'
import { applyRememberedTheme } from './lib/theme'
import './styles.css'

applyRememberedTheme()

const root = createRoot(document.getElementById('root')!)

void connect().then((result) => {
  root.render(<StrictMode>{result.ok ? <App /> : <AccessNeeded reason={result.reason} />}</StrictMode>)
})

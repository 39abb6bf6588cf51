// The shared styles first: each feature's own stylesheet, imported by its components, comes after.
import './styles.css'
import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { connect } from './api/connect'
import { App } from './App'
import { AccessNeeded } from './components/access-needed'
import { applyRememberedTheme } from './lib/theme'

applyRememberedTheme()

const root = createRoot(document.getElementById('root')!)

void connect().then((result) => {
  root.render(<StrictMode>{result.ok ? <App /> : <AccessNeeded reason={result.reason} />}</StrictMode>)
})

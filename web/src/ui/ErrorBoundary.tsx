// A render error anywhere below becomes the crash screen (React needs a class for this).
import { Component, type ReactNode } from 'react';
import { CrashScreen } from './CrashScreen';

interface Props {
  children: ReactNode;
  /** What to offer for a bug report (the current permalink). */
  replay: () => string;
}

export class ErrorBoundary extends Component<Props, { error: Error | null }> {
  override state: { error: Error | null } = { error: null };

  static getDerivedStateFromError(error: unknown): { error: Error } {
    return { error: error instanceof Error ? error : new Error(String(error)) };
  }

  override render() {
    if (this.state.error !== null) {
      return (
        <CrashScreen
          title="The page crashed"
          message={`${this.state.error.name}: ${this.state.error.message}`}
          replay={this.props.replay()}
        />
      );
    }
    return this.props.children;
  }
}

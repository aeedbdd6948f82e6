import ExampleSupport
import Foundation
import PagingDemoCommand

exit(Console.exitStatus(await PagingDemoCommand.main(arguments: CommandLine.arguments.dropFirst())))

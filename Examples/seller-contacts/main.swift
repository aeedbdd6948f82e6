import Foundation
import SellerContactsCommand

exit(await SellerContactsCommand.main(arguments: CommandLine.arguments.dropFirst()))
